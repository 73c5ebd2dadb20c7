"""URL routes of the community app, mounted at community/."""

from django.urls import path

from . import views

app_name = "community"

urlpatterns = [
    path("friends/", views.friends, name="friends"),
    path("games/<int:pk>/requirements/", views.requirements, name="requirements"),
    path("players/<str:name>/follow/", views.follow, name="follow"),
    path("players/<str:name>/unfollow/", views.unfollow, name="unfollow"),
    path("players/<str:name>/block/", views.block, name="block"),
    path("players/<str:name>/unblock/", views.unblock, name="unblock"),
]
