"""Accounts: player profiles on top of django-allauth's sign-up and login."""
