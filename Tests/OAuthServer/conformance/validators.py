import time

from oauth2_provider.models import get_device_grant_model
from oauth2_provider.oauth2_validators import OAuth2Validator
from oauthlib.oauth2.rfc8628.grant_types import DeviceCodeGrant


DEVICE_GRANT_TYPE = "urn:ietf:params:oauth:grant-type:device_code"


class ConformanceValidator(OAuth2Validator):
    """DOT's validator with the user's name in the ID token and at userinfo
    (`preferred_username`), the device-code check that oauthlib 4 asks of it, and an ID
    token for a device grant with the `openid` scope."""

    # Every claim for every `openid` token, whatever other scopes it has.
    oidc_claim_scope = None

    def get_additional_claims(self, request):
        return {"preferred_username": request.user.username}

    def validate_device_code(self, client_id, code, request, *args, **kwargs):
        """oauthlib 4 calls this when a device polls (RFC 8628 §3.4); DOT 3.4 does not
        have it and fails with a 500 once the user approved. The code's status, and for an
        approved code its user and scopes on the request, so they end up on the token."""
        model = get_device_grant_model()
        device = model.objects.filter(device_code=code, client_id=client_id).first()
        if device is None:
            return None
        if device.is_expired():
            return DeviceCodeGrant.DEVICE_CODE_EXPIRED
        if device.status == model.AUTHORIZED:
            request.user = device.user
            request.scopes = device.scope.split()
            return DeviceCodeGrant.DEVICE_CODE_AUTHORIZED
        if device.status == model.DENIED:
            return DeviceCodeGrant.DEVICE_CODE_DENIED
        return DeviceCodeGrant.DEVICE_CODE_PENDING

    def save_bearer_token(self, token, request, *args, **kwargs):
        """An ID token beside the tokens of a device grant that asked for `openid`, as hosted
        providers (Okta, Microsoft Entra ID, Google) send one: oauthlib's device grant is plain
        OAuth 2.0 and would send none. Signed like the authorization code's (RS256, the
        client's audience); oauthlib serializes the token after this, so the answer has it."""
        super().save_bearer_token(token, request, *args, **kwargs)
        if request.grant_type == DEVICE_GRANT_TYPE and "openid" in (request.scopes or []):
            id_token = {"aud": request.client_id, "iat": int(time.time())}
            token["id_token"] = self.finalize_id_token(id_token, token, None, request)
