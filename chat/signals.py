"""What the table talk tells the rest of the site: a message was posted.

Sent inside the transaction that stores the message, so a receiver's writes (the notifications
app queues "new messages" notices) commit or roll back with it. The table talk imports nothing
from its listeners: notifications reads the chat, the chat does not call notifications.
"""

from django.dispatch import Signal

# Sent with game= and message= (chat.models.Message).
message_posted = Signal()
