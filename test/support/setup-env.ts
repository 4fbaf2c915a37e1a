// Runs in every test worker before the test file.
process.env.NODE_ENV = 'test';
