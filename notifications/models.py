"""Models for notification preferences and delivery records. None yet."""
