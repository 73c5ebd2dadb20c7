"""Routes of the accounts app at the site's root (firenze_site/urls.py mounts them before
allauth's, whose sign-up address the first one takes over)."""

from django.urls import path

from . import views

urlpatterns = [
    # Our sign-up view first (same address, allauth's URL name): it settles display-name races.
    path("accounts/signup/", views.signup),
    # The footer's language switcher (the language is never in the URL).
    path("language/", views.switch_language, name="switch_language"),
]
