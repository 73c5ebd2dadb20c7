/* Behaviour of plain pages, kept out of the HTML: the Content-Security-Policy allows no inline
   script or event handler.
   - form[data-autosubmit]: submits itself once the page is loaded (the sign-in and unsubscribe
     links of emails, when the link is old enough to have been opened by a person).
   - input[data-select-on-focus]: selects its whole text when clicked (the invite link). */
(function () {
  "use strict";
  function ready() {
    document.querySelectorAll("form[data-autosubmit]").forEach(function (form) {
      form.submit();
    });
    document.querySelectorAll("input[data-select-on-focus]").forEach(function (input) {
      input.addEventListener("click", function () { input.select(); });
      input.addEventListener("focus", function () { input.select(); });
    });
  }
  if (document.readyState === "loading") {
    document.addEventListener("DOMContentLoaded", ready);
  } else {
    ready();
  }
})();
