from datetime import timedelta

from django.http import JsonResponse
from django.utils import timezone
from django.views.decorators.csrf import csrf_exempt
from django.views.decorators.http import require_GET, require_POST
from oauth2_provider.models import AccessToken
from oauth2_provider.views.generic import ProtectedResourceView, ScopedProtectedResourceView
from rest_framework.response import Response
from rest_framework.views import APIView

from .models import COUNTER_NAMES, Counter


class MeView(APIView):
    """GET /api/me/: the token's user. Authentication (OAuth2Authentication) and the
    IsAuthenticated permission come from REST_FRAMEWORK in settings."""

    def get(self, request):
        return Response({"id": request.user.id, "username": request.user.username})


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
