"""Every page in Italian, French and Spanish, each on a desktop in one language and a phone in
the next (so every page on both, every language on both): nothing overflows the screen, no
text runs out of its box (a button, a label, a cell, a heading), every button can be read, and
the visible text has no English left (tests/web/test_german's word list, less the words of the
language itself). Screenshots go to test-artifacts/screenshots/ (it-desktop-page-*.jpg,
fr-phone-page-*.png, ...) to look at."""

from __future__ import annotations

import pytest
from django.conf import settings

from tests.browser.helpers import low_contrast_buttons, overflow, screenshot, viewport_screenshot
from tests.browser.test_pages import PAGES, cast  # noqa: F401 (the fixture)
from tests.web.test_german import english_words
from tests.web.test_languages import OWN_WORDS

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

NEW = [code for code, _ in settings.LANGUAGES if code not in ("en", "de")]
# Text that runs out of its box: a box whose content is wider than the box itself, unless the
# box scrolls on purpose (overflow-x auto or scroll, such as a wide table's wrapper) or is a
# screen reader's text (a 1-pixel box). Each box is named by its path in the page, so that the
# same page in English can be compared: only what the translation pushed out counts.
OVERFLOWING_TEXT_JS = """() => {
  const path = (el) => {
    const steps = [];
    for (let e = el; e && e !== document.body; e = e.parentElement) {
      steps.unshift(`${e.tagName}:${Array.prototype.indexOf.call(e.parentElement.children, e)}`);
    }
    return steps.join('/');
  };
  const boxes = document.querySelectorAll(
    'button, .button, a, label, th, td, h1, h2, h3, summary, .badge, li, p, dt, dd, legend');
  const found = [];
  for (const el of boxes) {
    if (!el.offsetParent || el.clientWidth < 4) continue;
    const style = getComputedStyle(el);
    if (style.display.startsWith('inline') && !style.display.includes('block')) continue;
    if (['auto', 'scroll'].includes(style.overflowX)) continue;
    if (el.scrollWidth > el.clientWidth + 1) {
      found.push([path(el), `${el.tagName.toLowerCase()} "${el.innerText.trim().slice(0, 40)}"`
        + ` ${el.scrollWidth}>${el.clientWidth}`]);
    }
  }
  return found;
}"""
# The words a player reads or hears, without the time zone list (IANA names are names).
TEXT_JS = """() => {
  const body = document.body.cloneNode(true);
  const hidden = 'select[name=time_zone], script, style, template';
  body.querySelectorAll(hidden).forEach((e) => e.remove());
  return body.textContent;
}"""


def overflowing_text(page) -> dict[str, str]:
    return dict(page.evaluate(OVERFLOWING_TEXT_JS))


@pytest.mark.parametrize("phone", [False, True], ids=["desktop", "phone"])
@pytest.mark.parametrize("language", NEW)
def test_every_page_fits_its_boxes_and_speaks_the_language(new_page, cast, phone, language):  # noqa: F811
    """The text is the same on both screens; the boxes are checked on both across the
    languages, which break their lines alike."""
    for person in ("anna", "carla", "watcher"):
        cast[person].language = language
        cast[person].save(update_fields=["language"])
    ids = {key: game.pk for key, game in cast.items() if hasattr(game, "seats")}
    names = {"Friday towers", "Anna", "Ben", "Carla"}
    problems = []
    shift = NEW.index(language)
    pages = [entry for i, entry in enumerate(PAGES) if (i + shift) % 2 == phone]
    assert len(pages) >= len(PAGES) // 2
    for name, who, path in pages:
        page = new_page(phone=phone, user=cast[who] if who else None, language=language)
        response = page.goto(path.format(**ids))
        assert response.status == 200, (name, response.status)
        assert page.locator("html").get_attribute("lang") == language, name
        width = overflow(page)
        if width[0] > width[1]:
            problems.append(f"{name}: sideways scrolling {width}")
        boxes = overflowing_text(page)
        if boxes:  # the same page in English: what overflows there is no translation's doing
            english_page = new_page(phone=phone, user=cast[who] if who else None, language="en")
            english_page.goto(path.format(**ids))
            for box in set(overflowing_text(english_page)):
                boxes.pop(box, None)
            english_page.context.close()
        problems += [f"{name}: text out of its box: {box}" for box in boxes.values()]
        bad = low_contrast_buttons(page)
        if bad:
            problems.append(f"{name}: low contrast {bad}")
        text = page.evaluate(TEXT_JS)
        english = [w for w in english_words(text, names) if w.lower() not in OWN_WORDS[language]]
        if english:
            problems.append(f"{name}: English left {english}")
        device = "phone" if phone else "desktop"
        screenshot(page, f"{language}-{device}-page-{name}")
        if phone:
            viewport_screenshot(page, f"{language}-{device}-page-{name}-top")
        page.context.close()
    assert not problems, "\n".join(problems)
