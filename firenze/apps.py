from django.apps import AppConfig


class FirenzeConfig(AppConfig):
    name = "firenze"
    verbose_name = "Firenze"
