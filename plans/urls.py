from django.urls import path

from plans import views

app_name = "plans"
urlpatterns = [path("games/<int:pk>/plan/", views.plan_page, name="plan")]
