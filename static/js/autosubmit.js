// Submits the confirmation form of an email link (templates/notifications/_autosubmit.html),
// which includes this script only for links old enough to be opened by a person.
(function () {
  "use strict";
  var form = document.getElementById("email-link-form");
  if (form) {
    form.submit();
  }
})();
