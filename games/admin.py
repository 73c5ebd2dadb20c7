"""Admin registrations for games; models are registered here as they are added."""
