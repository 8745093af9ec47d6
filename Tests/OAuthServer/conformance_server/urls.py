from django.contrib.auth import views as auth_views
from django.urls import include, path, re_path

from conformance import views

urlpatterns = [
    # Before DOT's own: the token endpoint that answers expired_token for an expired device
    # code, the device authorization endpoint without its 500, and discovery documents that name the device authorization endpoint.
    path("o/token/", views.TokenView.as_view()),
    path("o/device-authorization/", views.DeviceAuthorizationView.as_view()),
    re_path(r"^o/\.well-known/openid-configuration/?$", views.DiscoveryView.as_view()),
    path("o/.well-known/oauth-authorization-server", views.ServerMetadataView.as_view()),
    # RFC 8414 §3.1: the metadata of the issuer http://host/o lives at the origin's
    # /.well-known/oauth-authorization-server/o.
    path(".well-known/oauth-authorization-server/<path:issuer_path>", views.ServerMetadataView.as_view()),
    # DOT: /o/token/, /o/revoke_token/, /o/authorize/, /o/device/, /o/userinfo/, ...
    path("o/", include("oauth2_provider.urls", namespace="oauth2_provider")),
    # Django's login form, where the user signs in before DOT's consent and device views.
    path("accounts/login/", auth_views.LoginView.as_view(), name="login"),
    # The protected resource.
    path("api/me/", views.MeView.as_view()),
    # Any live token's client (client credentials included).
    path("api/client/", views.ClientView.as_view()),
    # The same through DOT's ProtectedResourceView: a bare 403 for an expired token.
    path("api/me-forbidden/", views.ForbiddenOnExpiryMeView.as_view()),
    # A scope no token has: a bare 403 for a live token too.
    path("api/admin/", views.AdminView.as_view()),
    # Test support, without authentication; the trailing slash is optional here so
    # that a POST is never redirected.
    re_path(r"^test/counters/?$", views.counters),
    re_path(r"^test/reset/?$", views.reset),
    re_path(r"^test/expire-access-tokens/?$", views.expire_access_tokens),
    re_path(r"^test/expire-device-codes/?$", views.expire_device_codes),
    re_path(r"^test/slow-down-device-codes/?$", views.slow_down_device_codes),
]
