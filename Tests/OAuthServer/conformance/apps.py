from django.apps import AppConfig


class ConformanceConfig(AppConfig):
    name = "conformance"
    default_auto_field = "django.db.models.BigAutoField"
