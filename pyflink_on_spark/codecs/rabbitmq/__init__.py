"""RabbitMQ through pika (pure Python, AMQP 0-9-1): connections as RMQConnectionConfig
describes them (connection.py) and a publisher with confirms (publisher.py)."""
