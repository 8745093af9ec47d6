from django.urls import include, path, re_path

from conformance import views

urlpatterns = [
    # DOT: /o/token/, /o/revoke_token/, /o/introspect/, /o/authorize/, ...
    path("o/", include("oauth2_provider.urls", namespace="oauth2_provider")),
    # The protected resource.
    path("api/me/", views.MeView.as_view()),
    # The same through DOT's ProtectedResourceView: a bare 403 for an expired token.
    path("api/me-forbidden/", views.ForbiddenOnExpiryMeView.as_view()),
    # A scope no token has: a bare 403 for a live token too.
    path("api/admin/", views.AdminView.as_view()),
    # Test support, without authentication; the trailing slash is optional here so
    # that a POST is never redirected.
    re_path(r"^test/counters/?$", views.counters),
    re_path(r"^test/reset/?$", views.reset),
    re_path(r"^test/expire-access-tokens/?$", views.expire_access_tokens),
]
