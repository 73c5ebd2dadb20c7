"""factory-boy factories shared by the web tests."""

from __future__ import annotations

import factory
from allauth.account.models import EmailAddress
from django.contrib.auth import get_user_model

PASSWORD = "firenze-towers-42"


class UserFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = get_user_model()
        django_get_or_create = ("username",)
        skip_postgeneration_save = True

    username = factory.Sequence(lambda n: f"player{n}")
    display_name = factory.LazyAttribute(lambda u: u.username.capitalize())
    email = factory.LazyAttribute(lambda u: f"{u.username}@example.com")

    @factory.post_generation
    def password(self, create: bool, extracted: str | None, **kwargs: object) -> None:
        self.set_password(extracted or PASSWORD)
        if create:
            self.save(update_fields=["password"])

    @factory.post_generation
    def verified(self, create: bool, extracted: bool | None, **kwargs: object) -> None:
        """A verified primary address, as allauth requires before login."""
        if create and extracted is not False:
            EmailAddress.objects.get_or_create(
                user=self, email=self.email, defaults={"verified": True, "primary": True}
            )
