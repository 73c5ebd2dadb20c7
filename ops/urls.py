from django.urls import path

from ops import views

urlpatterns = [
    path("readyz", views.readyz, name="readyz"),
    path("metrics", views.metrics, name="metrics"),
]
