"""A player's request to become an organiser, decided by staff: its services, reads, forms, pages,
API and the emails that tell each side (the request itself is ``accounts.models_requests``)."""
