"""The account page (the display name, links to allauth's own settings and to the notification
preferences, notifications/settings_views.py), the download of one's data and the deletion of
the account, and sign-up (allauth's, with a clear answer when two people race for one display
name).

Changing the display name, downloading the data and deleting the account need the password
within the last minutes (allauth's reauthentication): a session opened from a forwarded turn
email cannot do any of them.
"""

from __future__ import annotations

import json

from allauth.account.decorators import reauthentication_required
from allauth.account.views import SignupView as AllauthSignupView
from django import forms
from django.conf import settings
from django.contrib import messages
from django.contrib.auth import logout
from django.contrib.auth.decorators import login_required
from django.db import IntegrityError, transaction
from django.http import HttpRequest, HttpResponse, HttpResponseBadRequest
from django.shortcuts import redirect, render
from django.utils import timezone, translation
from django.utils.http import url_has_allowed_host_and_scheme
from django.utils.translation import gettext as _
from django.utils.translation import pgettext
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from games import limits
from games.absences import reschedule_games_of
from games.errors import GameError

from . import personal_data
from .forms import (
    DISPLAY_NAME_TAKEN,
    DisplayNameForm,
    LanguageForm,
    SwitchLanguageForm,
    TimeZoneForm,
)

TIME_ZONE_FORM = "time_zone"
LANGUAGE_FORM = "language"

DELETE_WORD = "delete"


def _changes_display_name(request: HttpRequest) -> bool:
    """A post of the display name form (the language and time zone forms need no password)."""
    return request.method == "POST" and request.POST.get("form") not in (
        LANGUAGE_FORM,
        TIME_ZONE_FORM,
    )


@login_required
@reauthentication_required(allow_get=True, enabled=_changes_display_name)
def profile(request):
    """The account page. A new display name needs the password within the last minutes
    (allauth's reauthentication, which then carries the posted form on), like the email
    address: a forwarded email's sign-in link cannot rename the player."""
    user = request.user
    time_zone_form = TimeZoneForm(instance=user)
    language_form = LanguageForm(instance=user)
    if request.method == "POST":
        try:
            limits.check(request, "profile")
        except GameError as exc:
            messages.error(request, exc.message)
            return redirect("accounts:profile")
    if request.method == "POST" and request.POST.get("form") == LANGUAGE_FORM:
        language_form = LanguageForm(request.POST, instance=user)
        if language_form.is_valid():
            language_form.save(commit=False)
            user.save(update_fields=["language"])
            translation.activate(user.language)
            messages.success(request, _("Your language is saved."))
            return redirect("accounts:profile")
        form = DisplayNameForm(user=user)
    elif request.method == "POST" and request.POST.get("form") == TIME_ZONE_FORM:
        time_zone_form = TimeZoneForm(request.POST, instance=user)
        if time_zone_form.is_valid():
            time_zone_form.save(commit=False)
            with transaction.atomic():
                user.save(update_fields=["time_zone"])
                reschedule_games_of(user)  # days off begin at the new zone's midnight
            messages.success(request, _("Your time zone is saved."))
            return redirect("accounts:profile")
        form = DisplayNameForm(user=user)
    elif request.method == "POST":
        form = DisplayNameForm(request.POST, user=user)
        if form.is_valid():
            previous = user.display_name
            user.display_name = form.cleaned_data["display_name"]
            try:
                with transaction.atomic():
                    user.save(update_fields=["display_name"])
            except IntegrityError:
                # Someone took the name between the check and the save.
                user.display_name = previous
                form.add_error("display_name", DISPLAY_NAME_TAKEN)
            else:
                messages.success(
                    request,
                    _("Your display name is now %(display_name)s.")
                    % {"display_name": user.display_name},
                )
                return redirect("accounts:profile")
    else:
        form = DisplayNameForm(user=user)
    return render(
        request,
        "accounts/profile.html",
        {
            "form": form,
            "time_zone_form": time_zone_form,
            "time_zone_form_name": TIME_ZONE_FORM,
            "language_form": language_form,
            "language_form_name": LANGUAGE_FORM,
        },
    )


def delete_word() -> str:
    """The word to type, in the page's language ("delete", "löschen")."""
    return pgettext("the word typed to confirm deleting the account", "delete")


class DeleteAccountForm(forms.Form):
    confirm = forms.CharField(max_length=20)

    def __init__(self, *args, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        prompt = _('Type "%(word)s" to confirm') % {"word": delete_word()}
        self.fields["confirm"].label = prompt
        self.fields["confirm"].error_messages["required"] = f"{prompt}."

    def clean_confirm(self) -> str:
        value = self.cleaned_data["confirm"].strip().lower()
        if value not in (DELETE_WORD, delete_word().lower()):
            raise forms.ValidationError(_('Type "%(word)s" to confirm.') % {"word": delete_word()})
        return value


@login_required
@require_GET
@reauthentication_required
def export_data(request: HttpRequest) -> HttpResponse:
    """Everything the site holds about the player, as a JSON download."""
    data = personal_data.export(request.user)
    response = HttpResponse(
        json.dumps(data, indent=2, ensure_ascii=False), content_type="application/json"
    )
    stamp = timezone.now().strftime("%Y%m%d")
    response["Content-Disposition"] = f'attachment; filename="firenze-my-data-{stamp}.json"'
    response["Cache-Control"] = "no-store"
    return response


@login_required
@require_http_methods(["GET", "POST"])
@reauthentication_required(allow_get=True)
def delete_account(request: HttpRequest) -> HttpResponse:
    form = DeleteAccountForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        user = request.user
        logout(request)
        personal_data.delete_account(user)
        messages.success(
            request,
            _("Your account is deleted. Thank you for playing %(site)s.")
            % {"site": settings.SITE_NAME},
        )
        return redirect("games:home")
    status = 400 if form.errors else 200
    return render(request, "accounts/delete.html", {"form": form}, status=status)


class SignupView(AllauthSignupView):
    """allauth's sign-up; two sign-ups racing for one display name: the loser gets the form
    back with "That display name is taken." rather than an error page. An emailed invitee
    (games.views.invite_link) finds their address filled in."""

    def get_initial(self) -> dict:
        initial = super().get_initial()
        invited = self.request.session.get("account_verified_email")
        if invited and "email" not in initial:
            initial["email"] = invited
        return initial

    def form_valid(self, form):
        try:
            with transaction.atomic():
                return super().form_valid(form)
        except IntegrityError:
            form.add_error("display_name", DISPLAY_NAME_TAKEN)
            return self.form_invalid(form)


signup = SignupView.as_view()


@require_POST
def switch_language(request: HttpRequest) -> HttpResponse:
    """The footer switcher: remembers the language in a cookie (and on the account, for a
    signed-in player), then goes back to the page it was used on. URLs never change."""
    form = SwitchLanguageForm(request.POST)
    if not form.is_valid():
        return HttpResponseBadRequest(
            _("Choose one of the languages offered: %(languages)s.")
            % {"languages": ", ".join(code for code, _name in settings.LANGUAGES)},
            content_type="text/plain; charset=utf-8",
        )
    language = form.cleaned_data["language"]
    target = form.cleaned_data["next"] or request.headers.get("referer", "")
    if not url_has_allowed_host_and_scheme(
        target, allowed_hosts={request.get_host()}, require_https=request.is_secure()
    ):
        target = "/"
    user = request.user
    if user.is_authenticated and user.language != language:
        user.language = language
        user.save(update_fields=["language"])
    response = redirect(target)
    response.set_cookie(
        settings.LANGUAGE_COOKIE_NAME,
        language,
        max_age=settings.LANGUAGE_COOKIE_AGE,
        samesite=settings.LANGUAGE_COOKIE_SAMESITE,  # type: ignore[arg-type]  # "Lax" from settings
        secure=settings.LANGUAGE_COOKIE_SECURE,
        httponly=True,
    )
    return response
