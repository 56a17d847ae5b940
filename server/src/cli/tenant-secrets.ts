// Operator commands for the tenant file:
//   hash-password   reads a password on standard input and prints its password_hash
//   api-key ROLE    prints a new API key (give it to the client) and its tenant-file entry
import { generateApiKey } from '../services/auth/api-keys.js';
import { hashPassword } from '../services/auth/passwords.js';

const [command, role] = process.argv.slice(2);

if (command === 'hash-password') {
  let input = '';
  for await (const chunk of process.stdin) input += chunk;
  const password = input.replace(/\r?\n$/, '');
  if (password.length < 12) {
    console.error('The password must be at least 12 characters.');
    process.exit(1);
  }
  console.log(await hashPassword(password));
} else if (command === 'api-key' && role && ['viewer', 'user', 'admin'].includes(role)) {
  const { key, id, sha256 } = generateApiKey();
  console.log(`API key (shown once; give it to the client): ${key}`);
  console.log('Tenant file entry under api_keys:');
  console.log(`  - { id: ${id}, role: ${role}, sha256: ${sha256} }`);
} else {
  console.error('usage: tenant-secrets hash-password < password.txt | tenant-secrets api-key viewer|user|admin');
  process.exit(2);
}
