from django.db import migrations, models


def create_counters(apps, schema_editor):
    from conformance.models import COUNTER_NAMES

    Counter = apps.get_model("conformance", "Counter")
    Counter.objects.bulk_create([Counter(name=name, value=0) for name in COUNTER_NAMES])


class Migration(migrations.Migration):
    initial = True
    dependencies = []

    operations = [
        migrations.CreateModel(
            name="Counter",
            fields=[
                ("name", models.CharField(max_length=32, primary_key=True, serialize=False)),
                ("value", models.BigIntegerField(default=0)),
            ],
        ),
        migrations.RunPython(create_counters, migrations.RunPython.noop),
    ]
