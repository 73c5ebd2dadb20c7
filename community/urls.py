"""URL routes of the community app, mounted at community/."""

from django.urls import path

from . import views

app_name = "community"

urlpatterns = [
    path("friends/", views.friends, name="friends"),
    path("games/<int:pk>/requirements/", views.requirements, name="requirements"),
    path("players/<name:name>/follow/", views.follow, name="follow"),
    path("players/<name:name>/unfollow/", views.unfollow, name="unfollow"),
    path("players/<name:name>/block/", views.block, name="block"),
    path("players/<name:name>/unblock/", views.unblock, name="unblock"),
]
