from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("scorekeeper", "0010_account_language"),
    ]

    operations = [
        migrations.AddField(
            model_name="match",
            name="stats",
            field=models.JSONField(blank=True, editable=False, null=True),
        ),
    ]
