"""URL routes of the table talk (mounted at the site's root, beside the game pages)."""

from django.urls import path

from . import views

app_name = "chat"

urlpatterns = [
    path("games/<int:pk>/chat/", views.thread, name="thread"),
    path("games/<int:pk>/chat/post/", views.post, name="post"),
    path("games/<int:pk>/chat/<int:message_id>/delete/", views.delete, name="delete"),
    path("games/<int:pk>/chat/<int:message_id>/mute/", views.mute, name="mute"),
    path("games/<int:pk>/chat/<int:message_id>/report/", views.report, name="report"),
    path("chat/muted/<int:user_id>/unmute/", views.unmute, name="unmute"),
]
