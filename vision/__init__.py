"""vision: from camera frames to dice readings and throw observations.

Knows nothing of craps. Imports numpy and cv2 only (picamera2 lazily, inside its own source).
"""
