{ name: 'web', replicas: 3 }
