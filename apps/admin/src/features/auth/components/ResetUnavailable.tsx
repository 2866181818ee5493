import { Link } from 'react-router';

/** What both reset pages say when the instance has local login (and with it password reset) turned off. */
export function ResetUnavailable() {
  return (
    <>
      <p className="notice">
        Password reset is not available here: this Hearth signs people in through your organisation's identity provider. Reset your
        password there, or ask an administrator.
      </p>
      <p>
        <Link to="/sign-in">Back to sign in</Link>
      </p>
    </>
  );
}
