package main

deny contains "main" if input.kind
