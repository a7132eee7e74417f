package main

warn_replicas := "always"
