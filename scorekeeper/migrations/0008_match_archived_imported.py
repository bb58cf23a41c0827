from django.db import migrations, models


class Migration(migrations.Migration):

    dependencies = [
        ('scorekeeper', '0007_confirmation'),
    ]

    operations = [
        migrations.AddField(
            model_name='match',
            name='archived',
            field=models.DateTimeField(blank=True, null=True, verbose_name='archived'),
        ),
        migrations.AddField(
            model_name='match',
            name='imported',
            field=models.DateTimeField(blank=True, null=True, verbose_name='imported'),
        ),
    ]
