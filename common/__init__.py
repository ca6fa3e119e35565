"""What both apps need and neither owns: people's names, and the guard on a socket."""
