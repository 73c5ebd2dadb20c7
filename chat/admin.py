"""Admin of the table talk: the reports to look at first, and every message by game."""

from django.contrib import admin
from django.db.models import F
from django.utils import timezone

from games import versions
from games.models import Game

from .models import Message, Mute, Report


@admin.register(Report)
class ReportAdmin(admin.ModelAdmin):
    list_display = ("created", "reporter", "author", "game", "text", "reason", "resolved")
    list_filter = ("resolved",)
    search_fields = ("text", "reason", "reporter__display_name", "message__author__display_name")
    raw_id_fields = ("message", "reporter")
    readonly_fields = ("created", "text")
    actions = ["mark_resolved", "delete_messages"]

    @admin.display(description="Author")
    def author(self, report: Report) -> str:
        return report.message.author_name

    @admin.display(description="Game")
    def game(self, report: Report) -> int:
        return report.message.game_id

    @admin.action(description="Mark as resolved")
    def mark_resolved(self, request, queryset) -> None:
        queryset.update(resolved=True)

    @admin.action(description="Delete the reported messages (shown as 'message deleted')")
    def delete_messages(self, request, queryset) -> None:
        ids = list(queryset.values_list("message_id", flat=True))
        games = set(Message.objects.filter(pk__in=ids).values_list("game_id", flat=True))
        Message.objects.filter(pk__in=ids).update(text="", deleted_at=timezone.now())
        Game.objects.filter(pk__in=games).update(chat_version=F("chat_version") + 1)
        for game_id in games:
            versions.changed(game_id)
        queryset.update(resolved=True)


@admin.register(Message)
class MessageAdmin(admin.ModelAdmin):
    list_display = ("created", "game", "author", "text", "deleted_at")
    search_fields = ("text", "author__display_name")
    raw_id_fields = ("game", "author")
    list_filter = ("deleted_at",)


@admin.register(Mute)
class MuteAdmin(admin.ModelAdmin):
    list_display = ("created", "user", "muted")
    raw_id_fields = ("user", "muted")
