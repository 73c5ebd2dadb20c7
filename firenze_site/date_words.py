"""The names of months and weekdays in dates, as each language writes them.

Django's own catalogues word them (django.utils.dates), but its Italian capitalises them
("Giovedì 26 Novembre"), where Italian writes "giovedì 26 novembre". Marking Django's msgids
here puts them in locale/, whose catalogues win over Django's: every language the site offers
words them there. Nothing imports this module; `make messages` reads it.
"""

from __future__ import annotations

from django.utils.translation import gettext_noop

MONTHS = [
    gettext_noop("January"),
    gettext_noop("February"),
    gettext_noop("March"),
    gettext_noop("April"),
    gettext_noop("May"),
    gettext_noop("June"),
    gettext_noop("July"),
    gettext_noop("August"),
    gettext_noop("September"),
    gettext_noop("October"),
    gettext_noop("November"),
    gettext_noop("December"),
]
WEEKDAYS = [
    gettext_noop("Monday"),
    gettext_noop("Tuesday"),
    gettext_noop("Wednesday"),
    gettext_noop("Thursday"),
    gettext_noop("Friday"),
    gettext_noop("Saturday"),
    gettext_noop("Sunday"),
]
WEEKDAYS_ABBREVIATED = [
    gettext_noop("Mon"),
    gettext_noop("Tue"),
    gettext_noop("Wed"),
    gettext_noop("Thu"),
    gettext_noop("Fri"),
    gettext_noop("Sat"),
    gettext_noop("Sun"),
]
