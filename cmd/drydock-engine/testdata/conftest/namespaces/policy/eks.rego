package main.eks

warn contains "main.eks" if input.kind
