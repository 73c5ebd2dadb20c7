"""The account page: the player's display name and links to allauth's own settings and to the
notification preferences (notifications/settings_views.py)."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.db import IntegrityError, transaction
from django.shortcuts import redirect, render

from .forms import DISPLAY_NAME_TAKEN, DisplayNameForm


@login_required
def profile(request):
    user = request.user
    if request.method == "POST":
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
    return render(request, "accounts/profile.html", {"form": form})
