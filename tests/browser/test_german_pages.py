"""Every page in German, on a desktop and a phone: German words are long, and nothing may
overflow the screen or leave a button unreadable. Screenshots go to
test-artifacts/screenshots/ (de-desktop-page-*.jpg, de-phone-page-*.jpg) to look at."""

from __future__ import annotations

import pytest

from tests.browser.helpers import low_contrast_buttons, overflow, screenshot, viewport_screenshot
from tests.browser.test_pages import PAGES, cast  # noqa: F401, F811 (the fixture)

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


@pytest.mark.parametrize("phone", [False, True], ids=["desktop", "phone"])
def test_every_german_page_fits_the_screen_and_its_buttons_can_be_read(new_page, cast, phone):  # noqa: F811
    for person in ("anna", "carla", "watcher"):
        cast[person].language = "de"
        cast[person].save(update_fields=["language"])
    ids = {key: game.pk for key, game in cast.items() if hasattr(game, "seats")}
    problems = []
    for name, who, path in PAGES:
        page = new_page(phone=phone, user=cast[who] if who else None, language="de")
        response = page.goto(path.format(**ids))
        assert response.status == 200, (name, response.status)
        assert page.locator("html").get_attribute("lang") == "de", name
        width = overflow(page)
        if width[0] > width[1]:
            problems.append(f"{name}: sideways scrolling {width}")
        bad = low_contrast_buttons(page)
        if bad:
            problems.append(f"{name}: low contrast {bad}")
        device = "phone" if phone else "desktop"
        screenshot(page, f"de-{device}-page-{name}")
        if phone:
            viewport_screenshot(page, f"de-{device}-page-{name}-top")
        page.context.close()
    assert not problems, "\n".join(problems)
