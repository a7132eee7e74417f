package main

deny := 5
