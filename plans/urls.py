from django.urls import path

from plans import views

app_name = "plans"
urlpatterns = [
    path("games/<int:pk>/plan/", views.plan_page, name="plan"),
    path("games/<int:pk>/plan/orders/", views.standing_orders, name="orders"),
    path("games/<int:pk>/plan/sandbox/", views.sandbox_step, name="sandbox"),
    path("games/<int:pk>/plan/sandbox/undo/", views.sandbox_undo, name="sandbox_undo"),
    path("games/<int:pk>/replay/what-if/", views.what_if_page, name="what_if"),
    path("games/<int:pk>/replay/what-if/step/", views.what_if_step, name="what_if_step"),
    path("games/<int:pk>/replay/what-if/undo/", views.what_if_undo, name="what_if_undo"),
]
