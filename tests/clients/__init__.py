"""Records beside the libraries people use named tuples with (tox env "clients")."""
