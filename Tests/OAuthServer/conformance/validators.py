from oauth2_provider.models import get_device_grant_model
from oauth2_provider.oauth2_validators import OAuth2Validator
from oauthlib.oauth2.rfc8628.grant_types import DeviceCodeGrant


class ConformanceValidator(OAuth2Validator):
    """DOT's validator with the user's name in the ID token and at userinfo
    (`preferred_username`), and the device-code check that oauthlib 4 asks of it."""

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
