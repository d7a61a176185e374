"""web: the Flask dashboard (public and operator views, JSON API, SSE). Built in a later issue."""
