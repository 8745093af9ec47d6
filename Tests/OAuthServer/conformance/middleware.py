from django.db.models import F

from .models import Counter

TOKEN_PATH = "/o/token/"
REVOKE_PATH = "/o/revoke_token/"


class CountingMiddleware:
    """Counts token, revocation, 401 and 403 traffic for GET /test/counters."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        response = self.get_response(request)
        names = []
        if request.method == "POST" and request.path == TOKEN_PATH:
            names.append("tokenCalls")
            # A form body only (a JSON body has no grant_type for DOT either).
            grant_type = request.POST.get("grant_type")
            if grant_type == "refresh_token":
                names.append("refreshCalls")
            elif grant_type == "password":
                names.append("passwordCalls")
            elif grant_type == "authorization_code":
                names.append("authorizationCodeCalls")
            elif grant_type == "urn:ietf:params:oauth:grant-type:device_code":
                names.append("deviceCodeCalls")
            elif grant_type == "client_credentials":
                names.append("clientCredentialsCalls")
            if b"invalid_grant" in response.content:
                names.append("invalidGrant")
            if b'"authorization_pending"' in response.content:
                names.append("authorizationPending")
            if b'"slow_down"' in response.content:
                names.append("slowDown")
        elif request.method == "POST" and request.path == REVOKE_PATH:
            names.append("revokeCalls")
        if response.status_code == 401 and request.path.startswith("/api/"):
            names.append("unauthorized")
        if response.status_code == 403 and request.path.startswith("/api/"):
            names.append("forbidden")
        if names:
            # One atomic statement, however many counters.
            Counter.objects.filter(name__in=names).update(value=F("value") + 1)
        return response
