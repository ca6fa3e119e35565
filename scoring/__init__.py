"""A shared score sheet for Mexican Train played with real tiles."""
