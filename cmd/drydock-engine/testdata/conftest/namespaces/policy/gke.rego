package main.gke

deny contains "main.gke" if input.kind
