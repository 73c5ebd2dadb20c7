"""The allauth adapter: players are known by their display name, never by their email."""

from __future__ import annotations

from allauth.account import app_settings
from allauth.account.adapter import DefaultAccountAdapter
from allauth.account.utils import user_username
from django import forms
from django.conf import settings
from django.utils import translation
from django.utils.translation import gettext_lazy as _

from firenze_site import cache as shared_cache
from firenze_site.language import language_of_request, language_of_user

SIGN_IN_PAUSED = _(
    "Signing in with a password is paused for a minute while the site recovers; please try "
    "again shortly."
)


def user_display(user) -> str:
    """How allauth names a user in its pages, messages and emails (ACCOUNT_USER_DISPLAY)."""
    return user.public_name


class AccountAdapter(DefaultAccountAdapter):
    def pre_authenticate(self, request, **credentials) -> None:
        """With the shared cache down the guess limits count nothing: refuse password guesses
        until it is back, rather than allow unlimited ones (everything else keeps working)."""
        if not shared_cache.is_reachable():
            raise forms.ValidationError(SIGN_IN_PAUSED)
        super().pre_authenticate(request, **credentials)

    def reauthenticate(self, user, password) -> bool:
        if not shared_cache.is_reachable():
            return False
        return super().reauthenticate(user, password)

    def save_user(self, request, user, form, commit=True):
        display_name = form.cleaned_data.get("display_name")
        if display_name:
            user.display_name = display_name
        user.time_zone = form.cleaned_data.get("time_zone") or ""
        # The language the sign-up page was shown in: the switcher's cookie or the browser's.
        user.language = language_of_request(request) if request is not None else ""
        return super().save_user(request, user, form, commit=commit)

    def send_mail(self, template_prefix: str, email: str, context: dict) -> None:
        """allauth's emails (confirm your address, sign-in codes, password reset) go out in
        the language of the account they are about, else in the page's language."""
        context = {"site_name": settings.SITE_NAME, **context}
        user = context.get("user") or self._account_for(email)
        if user is None or not getattr(user, "language", ""):
            return super().send_mail(template_prefix, email, context)
        with translation.override(language_of_user(user)):
            return super().send_mail(template_prefix, email, context)

    @staticmethod
    def _account_for(email: str):
        from allauth.account.models import EmailAddress

        address = EmailAddress.objects.filter(email__iexact=email).select_related("user").first()
        return address.user if address is not None else None

    def populate_username(self, request, user) -> None:
        """Players sign in by email, so the username is internal only.

        allauth would build it from the email address; build it from the display name
        instead, so that nothing derived from the address is stored where it could leak.
        """
        if app_settings.USER_MODEL_USERNAME_FIELD and not user_username(user):
            user_username(
                user, self.generate_unique_username([getattr(user, "display_name", ""), "player"])
            )
