"""The admin: staff feature tournaments and look at entries (the pages do the rest)."""

from django.contrib import admin

from tournaments.models import Entry, LadderMember, Tournament


class EntryInline(admin.TabularInline):
    model = Entry
    extra = 0
    fields = ("user", "rating", "seed", "group", "withdrawn_round", "withdrawal", "final_place")
    raw_id_fields = ("user",)


@admin.register(Tournament)
class TournamentAdmin(admin.ModelAdmin):
    list_display = ("name", "format", "table_size", "status", "featured", "signup_closes")
    list_filter = ("status", "format", "featured", "table_size")
    list_editable = ("featured",)
    search_fields = ("name",)
    raw_id_fields = ("creator",)
    exclude = ("standings",)
    inlines = [EntryInline]


@admin.register(LadderMember)
class LadderMemberAdmin(admin.ModelAdmin):
    list_display = ("user", "table_size", "active", "joined")
    list_filter = ("table_size", "active")
    raw_id_fields = ("user",)
