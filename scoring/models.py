# Models for shared score sheets will live here.
