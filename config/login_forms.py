"""The log-in forms of the site and the admin, with the failed-login limits
(clubs/login_limits.py) around Django's password check."""

from __future__ import annotations

from typing import Any

from django import forms
from django.contrib.admin.forms import AdminAuthenticationForm
from django.contrib.auth.forms import AuthenticationForm

from clubs import login_limits


class LimitedLoginMixin:
    """Refuses a locked account or address before checking the password, counts each
    failure, and clears the account's count on success."""

    request: Any
    cleaned_data: dict[str, Any]

    def clean(self) -> dict[str, Any]:
        username = self.cleaned_data.get("username")
        if username is None or not self.cleaned_data.get("password"):
            return super().clean()  # type: ignore[misc]
        wait = login_limits.seconds_to_wait(self.request, username)
        if wait:
            raise forms.ValidationError(login_limits.locked_message(wait), code="locked_out")
        try:
            cleaned = super().clean()  # type: ignore[misc]
        except forms.ValidationError:
            wait = login_limits.record_failure(self.request, username)
            if wait:
                raise forms.ValidationError(
                    login_limits.locked_message(wait), code="locked_out"
                ) from None
            raise
        login_limits.record_success(self.request, username)
        return cleaned


class LoginForm(LimitedLoginMixin, AuthenticationForm):
    """/accounts/login/."""


class AdminLoginForm(LimitedLoginMixin, AdminAuthenticationForm):
    """/admin/login/."""
