"""WSGI entry point: gunicorn serves conformance_server.wsgi:application."""
import os

from django.core.wsgi import get_wsgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "conformance_server.settings")
application = get_wsgi_application()
