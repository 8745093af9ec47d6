from django.db import models

# The counters GET /test/counters reports, in the order it reports them.
COUNTER_NAMES = [
    "tokenCalls",  # POST /o/token/, any grant, any outcome
    "refreshCalls",  # ... of them with grant_type=refresh_token
    "passwordCalls",  # ... of them with grant_type=password
    "revokeCalls",  # POST /o/revoke_token/
    "unauthorized",  # responses with status 401 under /api/
    "forbidden",  # responses with status 403 under /api/
    "invalidGrant",  # /o/token/ responses whose body contains "invalid_grant"
    "authorizationCodeCalls",  # token calls with grant_type=authorization_code
    "deviceCodeCalls",  # token calls with the device_code grant (each poll)
    "clientCredentialsCalls",  # token calls with grant_type=client_credentials
    "authorizationPending",  # device polls answered authorization_pending
    "slowDown",  # device polls answered slow_down (sooner than the interval after the last)
]


class Counter(models.Model):
    """One row per counter, incremented with UPDATE ... SET value = value + 1, so that
    concurrent requests (threads and worker processes alike) never lose a count."""

    name = models.CharField(max_length=32, primary_key=True)
    value = models.BigIntegerField(default=0)
