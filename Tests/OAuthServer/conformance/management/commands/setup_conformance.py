"""Creates (or updates) the test user and the OAuth applications; safe to run again.

    manage.py setup_conformance --username U --password P --client-id ID --client-secret S \
        --service-client-secret S2

Each option falls back to an environment variable: OAUTH_USERNAME, OAUTH_PASSWORD,
OAUTH_CLIENT_ID, OAUTH_CLIENT_SECRET, OAUTH_SERVICE_CLIENT_SECRET.

The applications:
- ID (confidential, password grant, secret S): the password-grant client;
- `sdk-browser` (public, authorization code with PKCE, redirect URI
  http://127.0.0.1/callback: any port, RFC 8252 §7.3, which DOT allows for 127.0.0.1);
- `sdk-device` (public, the device authorization grant);
- `sdk-service` (confidential, client credentials, secret S2).
The public ones sign ID tokens with the server's RSA key (RS256).
"""
import os

from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand, CommandError
from django.db import transaction
from oauth2_provider.models import get_application_model

OPTIONS = {
    "username": "OAUTH_USERNAME",
    "password": "OAUTH_PASSWORD",
    "client_id": "OAUTH_CLIENT_ID",
    "client_secret": "OAUTH_CLIENT_SECRET",
    "service_client_secret": "OAUTH_SERVICE_CLIENT_SECRET",
}

BROWSER_CLIENT_ID = "sdk-browser"
DEVICE_CLIENT_ID = "sdk-device"
SERVICE_CLIENT_ID = "sdk-service"
LOOPBACK_REDIRECT_URI = "http://127.0.0.1/callback"


class Command(BaseCommand):
    help = "Create or update the conformance user and its confidential password-grant client."

    def add_arguments(self, parser):
        for option, env in OPTIONS.items():
            parser.add_argument("--" + option.replace("_", "-"), default=os.environ.get(env), help=f"(default: ${env})")

    @transaction.atomic
    def handle(self, *args, **options):
        for option, env in OPTIONS.items():
            if not options[option]:
                raise CommandError(f"--{option.replace('_', '-')} (or ${env}) is required")

        User = get_user_model()
        user, _ = User.objects.get_or_create(username=options["username"])
        user.set_password(options["password"])
        user.is_active = True
        user.save()

        Application = get_application_model()
        self.application(user, BROWSER_CLIENT_ID, Application.CLIENT_PUBLIC,
                         Application.GRANT_AUTHORIZATION_CODE, redirect_uris=LOOPBACK_REDIRECT_URI)
        self.application(user, DEVICE_CLIENT_ID, Application.CLIENT_PUBLIC, Application.GRANT_DEVICE_CODE)
        self.application(user, SERVICE_CLIENT_ID, Application.CLIENT_CONFIDENTIAL,
                         Application.GRANT_CLIENT_CREDENTIALS, secret=options["service_client_secret"])

        app = Application.objects.filter(client_id=options["client_id"]).first() or Application(
            client_id=options["client_id"]
        )
        app.name = "sdk-conformance"
        app.user = user
        app.client_type = Application.CLIENT_CONFIDENTIAL
        app.authorization_grant_type = Application.GRANT_PASSWORD
        app.redirect_uris = ""
        # The plain secret: DOT hashes it on save (hash_client_secret=True), so the
        # caller is the only one that knows it afterwards.
        app.hash_client_secret = True
        app.client_secret = options["client_secret"]
        app.save()
        self.stdout.write(f"user {user.username} (id {user.id}), client {app.client_id}: ready")

    def application(self, user, client_id, client_type, grant_type, redirect_uris="", secret=None):
        Application = get_application_model()
        app = Application.objects.filter(client_id=client_id).first() or Application(client_id=client_id)
        app.name = client_id
        app.user = user
        app.client_type = client_type
        app.authorization_grant_type = grant_type
        app.redirect_uris = redirect_uris
        app.algorithm = Application.RS256_ALGORITHM
        if secret is not None:
            app.hash_client_secret = True
            app.client_secret = secret
        app.save()
        self.stdout.write(f"client {client_id} ({client_type}, {grant_type}): ready")
