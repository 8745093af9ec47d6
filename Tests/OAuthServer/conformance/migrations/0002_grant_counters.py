from django.db import migrations


def create_counters(apps, schema_editor):
    from conformance.models import COUNTER_NAMES

    Counter = apps.get_model("conformance", "Counter")
    Counter.objects.bulk_create([Counter(name=name, value=0) for name in COUNTER_NAMES], ignore_conflicts=True)


class Migration(migrations.Migration):
    """The counters added with the authorization-code, device and client-credentials grants."""

    dependencies = [("conformance", "0001_initial")]

    operations = [migrations.RunPython(create_counters, migrations.RunPython.noop)]
