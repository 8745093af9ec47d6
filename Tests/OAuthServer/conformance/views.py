import hashlib
import json
from datetime import timedelta

from django.http import HttpResponse, JsonResponse
from django.urls import reverse
from django.utils.decorators import method_decorator
from django.utils import timezone
from django.views.decorators.csrf import csrf_exempt
from django.views.decorators.debug import sensitive_post_parameters
from django.views.decorators.http import require_GET, require_POST
from oauth2_provider import views as oauth2_views
from oauth2_provider.signals import app_authorized
from oauth2_provider.models import AccessToken, get_access_token_model, get_device_grant_model
from oauth2_provider.settings import oauth2_settings
from oauth2_provider.views import ConnectDiscoveryInfoView, OAuthServerMetadataView
from oauth2_provider.views.generic import ProtectedResourceView, ScopedProtectedResourceView
from rest_framework.permissions import BasePermission
from rest_framework.response import Response
from rest_framework.views import APIView

from .models import COUNTER_NAMES, Counter


class MeView(APIView):
    """GET /api/me/: the token's user. Authentication (OAuth2Authentication) and the
    IsAuthenticated permission come from REST_FRAMEWORK in settings."""

    def get(self, request):
        return Response({"id": request.user.id, "username": request.user.username})


class HasToken(BasePermission):
    """A live access token, whoever it is for: a client-credentials token has no user."""

    def has_permission(self, request, view):
        return request.auth is not None


class ClientView(APIView):
    """GET /api/client/: the token's client (and user, if it has one), for any live token,
    client credentials included; 401 with a Bearer challenge otherwise, like /api/me/."""

    permission_classes = [HasToken]

    def get(self, request):
        token = request.auth
        user = token.user.username if token.user else None
        return Response({"clientID": token.application.client_id, "scope": token.scope, "username": user})


class ForbiddenOnExpiryMeView(ProtectedResourceView):
    """GET /api/me-forbidden/: the token's user, through DOT's own ProtectedResourceView,
    which answers a bare 403 (no body, no challenge) to an expired, revoked or unknown
    token."""

    def get(self, request):
        return JsonResponse({"id": request.resource_owner.id, "username": request.resource_owner.username})


class AdminView(ScopedProtectedResourceView):
    """GET /api/admin/: needs the `admin` scope, which no token of the conformance client
    has: a live token gets the same bare 403 as an expired one (a real permission refusal)."""

    required_scopes = ["admin"]

    def get(self, request):
        return JsonResponse({"admin": True})


def _counters():
    values = dict(Counter.objects.values_list("name", "value"))
    return {name: values.get(name, 0) for name in COUNTER_NAMES}


@require_GET
def counters(request):
    return JsonResponse(_counters())


@csrf_exempt
@require_POST
def reset(request):
    Counter.objects.update(value=0)
    return JsonResponse(_counters())


@csrf_exempt
@require_POST
def expire_access_tokens(request):
    expired = AccessToken.objects.update(expires=timezone.now() - timedelta(seconds=1))
    return JsonResponse({"expired": expired})


# --- OpenID Connect, the device grant ---------------------------------------------------


def _with_device_and_revocation(response, request):
    """DOT's discovery documents leave out the device authorization endpoint (and the
    OpenID one the revocation endpoint and grant types, RFC 8414 §2 fields that OpenID
    Connect Discovery §3 allows), although DOT serves them: added here, as hosted
    providers publish them."""
    if response.status_code != 200:
        return response
    data = json.loads(response.content)
    data.setdefault("device_authorization_endpoint", request.build_absolute_uri(reverse("oauth2_provider:device-authorization")))
    data.setdefault("revocation_endpoint", request.build_absolute_uri(reverse("oauth2_provider:revoke-token")))
    data.setdefault("grant_types_supported", list(oauth2_settings.OAUTH2_GRANT_TYPES_SUPPORTED))
    return JsonResponse(data)


class DiscoveryView(ConnectDiscoveryInfoView):
    """GET /o/.well-known/openid-configuration: DOT's document plus the device
    authorization and revocation endpoints and the grant types."""

    def get(self, request, *args, **kwargs):
        return _with_device_and_revocation(super().get(request, *args, **kwargs), request)


class ServerMetadataView(OAuthServerMetadataView):
    """GET /.well-known/oauth-authorization-server/o (RFC 8414 §3.1, issuer /o) and
    /o/.well-known/oauth-authorization-server: DOT's document plus the device
    authorization endpoint."""

    def get(self, request, *args, **kwargs):
        return _with_device_and_revocation(super().get(request, *args, **kwargs), request)


@method_decorator(csrf_exempt, name="dispatch")
class TokenView(oauth2_views.TokenView):
    """POST /o/token/: DOT's token endpoint, except that a device code past its expiry
    answers `expired_token` (RFC 8628 §3.5; DOT 3.4 marks a code expired only when
    someone enters it at /o/device/, so a device polling an expired code would hear
    `authorization_pending` forever), and a device polling sooner than the interval hears
    `slow_down` (DOT 3.4 never sends it)."""

    def post(self, request, *args, **kwargs):
        if request.POST.get("grant_type") == "urn:ietf:params:oauth:grant-type:device_code":
            model = get_device_grant_model()
            device = model.objects.filter(device_code=request.POST.get("device_code", "")).first()
            if device is not None and not device.is_expired() and device.status == model.AUTHORIZATION_PENDING:
                # RFC 8628 §3.5 slow_down: a poll sooner than the interval after the previous
                # one (or the code's creation) is told to slow down. The poll time is kept in
                # last_checked (saving sets it to now).
                too_soon = timezone.now() - device.last_checked < timedelta(seconds=oauth2_settings.DEVICE_FLOW_INTERVAL)
                device.save(update_fields=["last_checked"])
                if too_soon:
                    return JsonResponse({"error": "slow_down"}, status=400)
        return super().post(request, *args, **kwargs)

    @method_decorator(sensitive_post_parameters("password", "client_secret"))
    def authorization_flow_token_response(self, request, *args, **kwargs):
        """DOT's own, except when the token it just issued is gone before it is read back
        for the `app_authorized` signal: a request presenting the same refresh token at the
        same moment was reuse and revoked the family in between. DOT 3.4.1 answers that
        with a 500 (`AccessToken.DoesNotExist`); this answers the 200 it computed (the
        tokens in it are already revoked, as they are when the revocation comes a moment
        later) and skips the signal for a token that no longer exists."""
        url, headers, body, status = self.create_token_response(request)
        if status == 200:
            access_token = json.loads(body).get("access_token")
            if access_token is not None:
                checksum = hashlib.sha256(access_token.encode("utf-8")).hexdigest()
                token = get_access_token_model().objects.filter(token_checksum=checksum).first()
                if token is not None:
                    app_authorized.send(sender=self, request=request, token=token)
        response = HttpResponse(content=body, status=status)
        for key, value in headers.items():
            response[key] = value
        return response


@csrf_exempt
@require_POST
def slow_down_device_codes(request):
    """POST /test/slow-down-device-codes: the next poll of every pending device code answers
    slow_down (its last poll is moved into the future)."""
    model = get_device_grant_model()
    marked = model.objects.filter(status=model.AUTHORIZATION_PENDING).update(
        last_checked=timezone.now() + timedelta(days=1)
    )
    return JsonResponse({"marked": marked})


@csrf_exempt
@require_POST
def expire_device_codes(request):
    """POST /test/expire-device-codes: every pending device code is past its expiry now."""
    model = get_device_grant_model()
    expired = model.objects.filter(status=model.AUTHORIZATION_PENDING).update(
        expires=timezone.now() - timedelta(seconds=1)
    )
    return JsonResponse({"expired": expired})


@method_decorator(csrf_exempt, name="dispatch")
class DeviceAuthorizationView(oauth2_views.DeviceAuthorizationView):
    """POST /o/device-authorization/: DOT's view, with the `scope` that oauthlib 4 adds to
    its answer taken out first: DOT 3.4 passes that answer to DeviceCodeResponse, which has
    no `scope` field, and fails with a 500 (it works the scope out again itself)."""

    def create_device_authorization_response(self, request):
        headers, response, status = super().create_device_authorization_response(request)
        if isinstance(response, dict):
            response.pop("scope", None)
        return headers, response, status
