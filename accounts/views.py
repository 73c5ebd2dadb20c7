"""The account page: the player's display name and links to allauth's own settings and to the
notification preferences (notifications/settings_views.py)."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.db import IntegrityError, transaction
from django.shortcuts import redirect, render

from .forms import DISPLAY_NAME_TAKEN, DisplayNameForm, TimeZoneForm

TIME_ZONE_FORM = "time_zone"


@login_required
def profile(request):
    user = request.user
    time_zone_form = TimeZoneForm(instance=user)
    if request.method == "POST" and request.POST.get("form") == TIME_ZONE_FORM:
        time_zone_form = TimeZoneForm(request.POST, instance=user)
        if time_zone_form.is_valid():
            time_zone_form.save(commit=False)
            user.save(update_fields=["time_zone"])
            messages.success(request, "Your time zone is saved.")
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
                messages.success(request, f"Your display name is now {user.display_name}.")
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
        },
    )
