local lib = import 'lib.libsonnet';
{ name: lib.name, replicas: lib.replicas * 2 }
